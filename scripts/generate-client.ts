// `npm run client:generate`: writes the typed clients' types from the app's OpenAPI document, built in
// this process on an in-memory database (no server, nothing read from the environment): the TypeScript
// client's (clients/typescript) and the Python client's (clients/python).
import { writeFileSync } from 'node:fs';
import { openPglite } from '../src/db/client.js';
import { CLIENT_TYPES_PATH, clientTypesSource, defaultApiDocument } from './client-types.js';
import { PYTHON_TYPES_PATH, pythonTypesSource } from './python-client-types.js';

const database = await openPglite('memory://');
try {
  const document = await defaultApiDocument(database);
  writeFileSync(CLIENT_TYPES_PATH, await clientTypesSource(document));
  console.log(`wrote ${CLIENT_TYPES_PATH}`);
  writeFileSync(PYTHON_TYPES_PATH, pythonTypesSource(document));
  console.log(`wrote ${PYTHON_TYPES_PATH}`);
} finally {
  await database.close();
}
