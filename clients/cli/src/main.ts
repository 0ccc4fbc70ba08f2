// The akker command line: parses the arguments, runs the command, and turns what happened into an exit code.
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { crsCodes, crsOption } from './crs.js';
import { unreachable } from './connection.js';
import { exportFields, exportFormats, type ExportFormat } from './export-command.js';
import { CommandFailure, EXIT } from './failures.js';
import { listFarmsCommand } from './farms-command.js';
import { importFields } from './import-command.js';
import type { Io } from './io.js';
import { progressBar, silentProgress } from './progress.js';

const processIo = (): Io => ({
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  progress: process.stderr.isTTY ? progressBar(process.stderr) : silentProgress,
});

function year(value: string): number {
  if (!/^\d{4}$/.test(value)) throw new InvalidArgumentError('a year is four digits, e.g. 2025');
  return Number(value);
}

function date(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('a date is YYYY-MM-DD');
  return value;
}

function crs(value: string) {
  try {
    return crsOption(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

const examples = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

function program(io: Io, finish: (code: Promise<number>) => void): Command {
  const root = new Command('akker')
    .description('Import, keep in step and export the field boundaries of a farm in Akker.')
    .option('--url <url>', 'where Akker is (default: $AKKER_URL)')
    .option('--key <key>', 'an API key (default: $AKKER_API_KEY); never printed')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .addHelpText(
      'after',
      examples([
        'export AKKER_URL=https://akker.example.org AKKER_API_KEY=akk_…',
        'akker farms list',
        'akker fields import percelen.zip --farm <b_id_farm> --dry-run',
      ]),
    );

  const fields = root.command('fields').description('import, keep in step and export the fields of a farm');
  fields
    .command('import')
    .description(
      'Import field boundaries from GeoJSON, KML, CSV (as exported) or a shapefile (.zip, or .shp with .dbf/.prj beside it). ' +
        'Each feature is matched to a field of the farm (by b_id_source, else by an overlap of 0.9 or more) and shown as new, unchanged, changed or only in Akker; new ones are created. ' +
        'Safe to stop and run again: nothing is created twice.',
    )
    .argument('<file>', 'the file to import, recognised by its content')
    .requiredOption('--farm <id>', 'the farm (b_id_farm; see akker farms list)')
    .option('--year <yyyy>', "the year of the main cultivation (RVO's GEWASCODE)", year, new Date().getFullYear())
    .option('--dry-run', 'show the review, write nothing', false)
    .option('--update', 'also change the fields whose name, dates or outline differ (PATCH with If-Match)', false)
    .option('--delete-missing', 'also delete the fields of the farm that the file does not have', false)
    .option('--name-from <property>', 'the property that holds the name (default: b_name, NAAM, name)')
    .option('--start <date>', 'b_start of the features that state none (YYYY-MM-DD)', date)
    .addOption(new Option('--crs <crs>', `the coordinate system of a file that names none: ${crsCodes.join(', ')}`).argParser(crs))
    .addHelpText(
      'after',
      examples([
        'akker fields import percelen.zip --farm aBcD… --dry-run        # RVO Mijn Percelen export: review only',
        'akker fields import percelen.zip --farm aBcD… --year 2025      # create the new fields and their 2025 crop',
        'akker fields import percelen.zip --farm aBcD… --update --delete-missing',
        'akker fields import fields.kml --farm aBcD… --start 2024-01-01',
        'akker fields import plots.shp --farm aBcD… --crs EPSG:28992 --name-from PERCEEL --start 2020-01-01',
      ]),
    )
    .action((file: string, options, command: Command) => finish(importFields(file, command.optsWithGlobals(), io)));
  fields
    .command('export')
    .description('Write every field of a farm, with the attributes an import reads back (export, then import: all unchanged).')
    .requiredOption('--farm <id>', 'the farm (b_id_farm)')
    .addOption(
      new Option('--format <format>', 'geojson, shapefile (a .zip in the RVO layout) or csv')
        .choices(exportFormats)
        .default('geojson' satisfies ExportFormat),
    )
    .addOption(new Option('--crs <crs>', `the coordinate system to write: ${crsCodes.join(', ')}`).argParser(crs).default('EPSG:4326'))
    .option('--out <file>', 'the file to write (default: standard output; a shapefile needs one)')
    .addHelpText(
      'after',
      examples([
        'akker fields export --farm aBcD… > fields.geojson',
        'akker fields export --farm aBcD… --format shapefile --crs EPSG:28992 --out percelen.zip',
        'akker fields export --farm aBcD… --format csv --out fields.csv',
      ]),
    )
    .action((options, command: Command) => finish(exportFields(command.optsWithGlobals(), io)));

  const farms = root.command('farms').description('the farms your key may see');
  farms
    .command('list')
    .description('List the farms (id and name) the API key may see.')
    .addHelpText('after', examples(['akker farms list', 'akker farms list --url http://127.0.0.1:3000 --key "$KEY"']))
    .action((options, command: Command) => finish(listFarmsCommand(command.optsWithGlobals(), io)));
  return root;
}

/** Runs the command line `argv` (without node and the script) and answers its exit code: 0 done, 1 some features refused, 2 failed. */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  let result: Promise<number> | undefined;
  try {
    await program(io, (code) => (result = code)).parseAsync(argv, { from: 'user' });
    return result === undefined ? EXIT.done : await result;
  } catch (caught) {
    if (caught instanceof CommanderError) return caught.exitCode === 0 ? EXIT.done : EXIT.failed;
    const error = unreachable(caught);
    io.err(
      `akker: ${error instanceof CommandFailure ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.failed;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await run(process.argv.slice(2));
