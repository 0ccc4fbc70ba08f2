// `npm run build` compiles src/ to dist/; the files the code reads at run time travel with it.
import { cpSync } from 'node:fs';

cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
cpSync('src/catalogues/data', 'dist/catalogues/data', { recursive: true });
cpSync('src/calculations/norms/data', 'dist/calculations/norms/data', { recursive: true });
