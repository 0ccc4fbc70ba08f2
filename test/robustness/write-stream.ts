// Concurrent writers that remember exactly which writes the server acknowledged (2xx received),
// so that a test can kill the server at any moment and then check that none of those is lost.

export interface WrittenFarm {
  id: string;
  name: string;
  fieldIds: string[];
  /** The last address a PATCH acknowledged, and one sent but not (yet) acknowledged. */
  address: string | null;
  pendingAddress: string | null;
}

export class WriteLog {
  readonly farms: WrittenFarm[] = [];
  acknowledged = 0;
  /** Answers that were neither a 2xx nor a broken connection: a bug, whatever the kill. */
  readonly unexpected: string[] = [];
}

const geometry = (i: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [5 + i * 0.01, 52],
      [5.005 + i * 0.01, 52],
      [5.005 + i * 0.01, 52.003],
      [5 + i * 0.01, 52.003],
      [5 + i * 0.01, 52],
    ],
  ],
});

/**
 * Creates a farm, adds a field to it and patches its address, again and again, until a request fails
 * to get an answer (the server was killed). Every acknowledged write is recorded in `log`.
 */
export async function runWriter(url: string, key: string, writer: number, log: WriteLog): Promise<void> {
  const send = async (method: string, path: string, body: unknown, expected: number): Promise<Record<string, unknown> | undefined> => {
    const response = await fetch(`${url}${path}`, {
      method,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-api-key': key },
    });
    if (response.status !== expected) {
      log.unexpected.push(`${method} ${path}: ${response.status} ${await response.text()}`);
      return undefined;
    }
    return (await response.json()) as Record<string, unknown>;
  };
  try {
    for (let i = 0; ; i++) {
      const name = `writer ${writer} farm ${i}`;
      const farm = await send('POST', '/api/farms', { b_name_farm: name }, 201);
      if (!farm) return;
      const record: WrittenFarm = { id: farm.b_id_farm as string, name, fieldIds: [], address: null, pendingAddress: null };
      log.farms.push(record);
      log.acknowledged++;
      const field = await send(
        'POST',
        `/api/farms/${record.id}/fields`,
        { b_name: `field ${i}`, b_geometry: geometry(i), b_start: '2024-01-01' },
        201,
      );
      if (!field) return;
      record.fieldIds.push(field.b_id as string);
      log.acknowledged++;
      record.pendingAddress = `Dorpsstraat ${i}`;
      if (!(await send('PATCH', `/api/farms/${record.id}`, { b_address_farm: record.pendingAddress }, 200))) return;
      record.address = record.pendingAddress;
      record.pendingAddress = null;
      log.acknowledged++;
    }
  } catch {
    // No answer: the server is gone. What was acknowledged up to here is in the log.
  }
}
