// `npm run bench:geometry`: what a field's geometry costs to check. First the self-crossing check on
// its own, in this process, for outlines of 10,000 positions (the limit), the slanted comb being the
// worst case of a sweep that compares overlapping extents. Then POSTs of geometry bombs to a real
// server (a child process on an embedded database in memory) while another connection asks /health
// again and again: the time to the answer, its status and size, and the longest /health wait. In
// between, the field body's validation in process, for bodies the HTTP layer may refuse before it.
import { findCrossing } from '../src/resources/fields/ring-crossing.js';
import { fieldCreateSchema } from '../src/resources/fields/schemas.js';
import { createFarm, signUpWithKey } from './akker-api.js';
import { pollHealth } from './health-poll.js';
import { startServer } from './processes.js';

type Position = [number, number];

const circle = (positions: number): Position[] => {
  const ring: Position[] = [];
  for (let i = 0; i < positions - 1; i++) {
    const angle = (2 * Math.PI * i) / (positions - 1);
    ring.push([5 + 0.01 * Math.cos(angle), 52 + 0.01 * Math.sin(angle)]);
  }
  return [...ring, ring[0]!];
};

/** Long east–west teeth: crowded along one axis only. */
const comb = (teeth: number): Position[] => {
  const ring: Position[] = [[0, 0]];
  for (let i = 0; i < teeth; i++) ring.push([1000, 2 * i], [1000, 2 * i + 1], [1, 2 * i + 1], [1, 2 * i + 2]);
  return [...ring, [0, 2 * teeth], [0, 0]];
};

/** Teeth rising so steeply that every segment's extent overlaps every other's along both axes; in degrees. */
const slantedComb = (teeth: number): Position[] => {
  const at = (x: number, y: number): Position => [5 + x * 1e-5, 52 + y * 1e-6];
  const rise = 4 * teeth;
  const ring: Position[] = [at(1, 0)];
  for (let i = 0; i < teeth; i++) ring.push(at(1000, rise + 2 * i), at(1000, rise + 2 * i + 1), at(1, 2 * i + 1), at(1, 2 * i + 2));
  return [...ring, at(0, 2 * teeth), at(0, 0), at(1, 0)];
};

/** The fastest of `runs` (the machine is shared: the minimum is the least disturbed). */
function fastest(runs: number, work: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

console.log('Self-crossing check, in process (fastest of 20 runs):');
for (const [name, ring] of [
  ['circle, 10,000 positions', circle(10_000)],
  ['comb, 10,000 positions', comb(2_499)],
  ['slanted comb, 10,000 positions', slantedComb(2_499)],
] as const) {
  console.log(
    `  ${name.padEnd(40)} ${fastest(20, () => findCrossing([ring]))
      .toFixed(1)
      .padStart(8)} ms`,
  );
}

const multiPolygonOfEmpty = (count: number) => ({ type: 'MultiPolygon', coordinates: Array.from({ length: count }, () => [[]]) });
console.log('\nField body validation, in process (fastest of 5 runs; the HTTP layer may refuse such bodies before it):');
for (const count of [1_048_536, 100_000]) {
  const body = { b_name: 'Perceel', b_start: '2020-01-01', b_geometry: multiPolygonOfEmpty(count) };
  const ms = fastest(5, () => fieldCreateSchema.safeParse(body));
  console.log(`  ${`${count.toLocaleString('en')} empty polygons`.padEnd(40)} ${ms.toFixed(2).padStart(8)} ms`);
}

const field = (geometry: string) => `{"b_name":"Perceel","b_start":"2020-01-01","b_geometry":${geometry}}`;
const emptyPolygons = (count: number) => field(`{"type":"MultiPolygon","coordinates":[${Array(count).fill('[[]]').join(',')}]}`);
const bodies: Array<[string, string]> = [
  ['1,048,536 empty polygons (5 MiB)', emptyPolygons(1_048_536)],
  ['100,000 empty polygons', emptyPolygons(100_000)],
  ['circle, 10,000 positions (valid)', field(JSON.stringify({ type: 'Polygon', coordinates: [circle(10_000)] }))],
  ['slanted comb, 10,000 positions (valid)', field(JSON.stringify({ type: 'Polygon', coordinates: [slantedComb(2_499)] }))],
];

const server = await startServer('src/server.ts', {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: 'memory://',
  DATABASE_URL: '',
  REDIS_URL: '',
  RATE_LIMIT_GENERAL: '1000000',
  RATE_LIMIT_WRITE: '1000000',
  RATE_LIMIT_CALCULATION: '1000000',
});
try {
  const account = await signUpWithKey(server.url, 'geometry');
  const farm = await createFarm(server.url, account.key);
  console.log('\nPOST /api/farms/{id}/fields to a server process, /health asked meanwhile:');
  console.log(
    `  ${'body'.padEnd(40)} ${'answer ms'.padStart(10)} ${'status'.padStart(7)} ${'bytes'.padStart(8)} ${'/health max ms'.padStart(15)}`,
  );
  for (const [name, body] of bodies) {
    const health = pollHealth(server.url);
    const started = performance.now();
    const response = await fetch(`${server.url}/api/farms/${farm.b_id_farm}/fields`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.key },
      body,
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    const responseMs = performance.now() - started;
    const healthMs = await health.stop();
    console.log(
      `  ${name.padEnd(40)} ${responseMs.toFixed(0).padStart(10)} ${String(response.status).padStart(7)} ${String(bytes).padStart(8)} ${healthMs.toFixed(0).padStart(15)}`,
    );
  }
} finally {
  await server.stop();
}
