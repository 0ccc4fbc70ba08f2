// The Node response of Akker's server (http.createServer's `ServerResponse` option). It carries the
// answer header fields of its request and adds them to the header object that @hono/node-server hands
// `writeHead`. Set through `setHeader` beforehand, the same fields cost twice as much: Node then validates
// and stores every field of the answer one by one before writing (bench:instructions, about 7k
// instructions a request).
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { AnswerHeaders } from './answer-headers.js';

type HeadersArgument = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** Whether `headers` holds a field called `name` (lower case), in any case. */
function carries(headers: OutgoingHttpHeaders, name: string): boolean {
  for (const key in headers) if (key.length === name.length && key.toLowerCase() === name) return true;
  return false;
}

export class AnswerResponse extends ServerResponse<IncomingMessage> {
  /** Name (lower case), value, …; see answer-headers.ts. Written by the next `writeHead`. */
  answerFields: AnswerHeaders | undefined = undefined;

  override writeHead(statusCode: number, reasonOrHeaders?: string | HeadersArgument, headers?: HeadersArgument): this {
    const fields = this.answerFields;
    if (fields !== undefined) {
      this.answerFields = undefined;
      if (typeof reasonOrHeaders === 'string') headers = this.#withFields(headers, fields);
      else reasonOrHeaders = this.#withFields(reasonOrHeaders, fields);
    }
    return super.writeHead(statusCode, reasonOrHeaders as string, headers);
  }

  /** The answer's own fields, then each answer field it does not carry itself (its own value wins). */
  #withFields(headers: HeadersArgument | undefined, fields: AnswerHeaders): HeadersArgument {
    if (Array.isArray(headers)) {
      // A raw list (not what @hono/node-server sends): Node's own merge, which lets the list's fields win.
      for (let i = 0; i < fields.length; i += 2) this.setHeader(fields[i]!, fields[i + 1]!);
      return headers;
    }
    // A copy: the object may belong to a Response that is answered again.
    const merged: OutgoingHttpHeaders = { ...headers };
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!;
      if (headers === undefined || !carries(headers, name)) merged[name] = fields[i + 1]!;
    }
    return merged;
  }
}

/** http.createServer's options that make its responses AnswerResponses (Node's types cannot say so). */
export const answerServerOptions = { ServerResponse: AnswerResponse as unknown as typeof ServerResponse };
