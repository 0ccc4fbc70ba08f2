// The Python client's generated types and operation table (clients/python/src/akker/openapi.py) are what
// the generator makes from the app's document now. The client's behaviour is tested in Python, against a
// real server (clients/python/tests, run by .ci/run).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultApiDocument } from '../../scripts/client-types.js';
import { PYTHON_TYPES_PATH, pythonTypesSource } from '../../scripts/python-client-types.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('the Python client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  it('has types and operations that are what the generator makes from the app now', async () => {
    const committed = readFileSync(PYTHON_TYPES_PATH, 'utf8');
    const generated = pythonTypesSource(await defaultApiDocument(t.database));
    expect(generated === committed, `${PYTHON_TYPES_PATH} is not what the API describes now: run \`npm run client:generate\``).toBe(true);
  });
});
