// The database's ceiling: Hono plus one indexed query for the farm as the API defines it (its record
// times included, formatted by the same expression as Akker's), sent the way Akker's store sends its reads (a Statement through DatabaseHandle.rows: a named prepared statement on PostgreSQL, and on
// PGlite a statement for the embedded database's own thread, opened by the same openPglite as Akker's).
// DATABASE_URL selects PostgreSQL; otherwise the PGlite folder DATA_DIR (taking its lock, as Akker does).
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { openPglite, openPostgres } from '../../src/db/client.js';
import { Statement } from '../../src/db/statement.js';
import { rfc3339Text } from '../../src/db/timestamps.js';
import { listen } from './listen.js';

const { DATABASE_URL, DATA_DIR } = process.env;
if (!DATABASE_URL && !DATA_DIR) throw new Error('Set DATABASE_URL or DATA_DIR.');
const database = DATABASE_URL ? await openPostgres(DATABASE_URL) : await openPglite(DATA_DIR!);

const farmById = new Statement<Record<string, unknown>, { id: string }>(
  'bench_farm',
  sql`select b_id_farm, b_name_farm, b_businessid_farm, b_address_farm, b_postalcode_farm,
             ${rfc3339Text(sql.raw('created_at'))} as created_at, ${rfc3339Text(sql.raw('updated_at'))} as updated_at
      from farms where b_id_farm = ${sql.placeholder('id')}`,
);

const app = new Hono();
app.get('/api/farms/:id', async (c) => {
  const [farm] = await database.rows(farmById, { id: c.req.param('id') });
  return farm ? c.json(farm) : c.json({ error: 'not found' }, 404);
});
listen(app, () => database.close());
