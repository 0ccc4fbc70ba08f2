// TCP connections and their queues, as Linux's /proc tells them: what a bench sees of sockets that the
// process on the other side does not read.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface TcpConnection {
  localPort: number;
  remotePort: number;
  /** Bytes written on this side and not yet acknowledged by the peer. */
  sendQueue: number;
  /** Bytes arrived on this side and not yet read. */
  receiveQueue: number;
  /** 0 for a connection no process holds any more (closed, its last bytes still being sent). */
  inode: string;
}

const port = (address: string) => parseInt(address.split(':')[1]!, 16);

/** Every IPv4 TCP connection of this network namespace. */
export function tcpConnections(): TcpConnection[] {
  return readFileSync('/proc/net/tcp', 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const columns = line.trim().split(/\s+/);
      const [sendQueue, receiveQueue] = columns[4]!.split(':').map((hex) => parseInt(hex, 16));
      return {
        localPort: port(columns[1]!),
        remotePort: port(columns[2]!),
        sendQueue: sendQueue!,
        receiveQueue: receiveQueue!,
        inode: columns[9]!,
      };
    });
}

/** The inodes of the sockets process `pid` holds open. */
export function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]!);
    } catch {
      // Closed while listed.
    }
  }
  return inodes;
}
