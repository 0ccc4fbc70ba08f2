// `npm run client:generate`: writes the typed client's types from the app's OpenAPI document, built in
// this process on an in-memory database (no server, nothing read from the environment).
import { writeFileSync } from 'node:fs';
import { openPglite } from '../src/db/client.js';
import { CLIENT_TYPES_PATH, clientTypesSource, defaultApiDocument } from './client-types.js';

const database = await openPglite('memory://');
try {
  writeFileSync(CLIENT_TYPES_PATH, await clientTypesSource(await defaultApiDocument(database)));
  console.log(`wrote ${CLIENT_TYPES_PATH}`);
} finally {
  await database.close();
}
