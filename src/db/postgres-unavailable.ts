// Why a PostgreSQL server named by DATABASE_URL cannot be used at start-up, in one line that says what to do.
import { StartupError, withoutPassword } from '../core/startup-error.js';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

export function postgresUnavailable(url: string, error: unknown): StartupError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const shown = withoutPassword(url);
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.slice(1)) || parsed.username || 'postgres';
  const server = `${parsed.hostname || 'localhost'}:${parsed.port || 5432}`;
  if (code === '3D000') {
    return new StartupError(
      `The database "${database}" does not exist on the PostgreSQL server at ${server}: create it (createdb ${database}) or correct DATABASE_URL (${shown}).`,
    );
  }
  if (typeof code === 'string' && UNREACHABLE.has(code)) {
    return new StartupError(
      `The PostgreSQL server at ${server} is unreachable (${code}): start it, or correct the host and port in DATABASE_URL (${shown}).`,
    );
  }
  if (code === '28P01' || code === '28000') {
    return new StartupError(
      `The PostgreSQL server at ${server} refused the credentials of DATABASE_URL (${message}): correct the user or password.`,
    );
  }
  return new StartupError(`The PostgreSQL server at ${server} cannot be used (${message}): check DATABASE_URL (${shown}).`);
}
