// What the import tells its user: the review table before writing, and the summary after.
import type { CropPlan } from './crop-plan.js';
import type { Parcel } from './parcels.js';
import type { Review } from './review.js';
import type { Outcomes } from './writes.js';

/** A made-up name is marked as such wherever it is shown. */
const MADE_UP = ' (made up)';
export const shownName = (parcel: Parcel) => (parcel.nameMadeUp ? `${parcel.name}${MADE_UP}` : parcel.name);

const cell = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

function cropCell(crop: CropPlan): string {
  switch (crop.state) {
    case 'none':
      return '';
    case 'add':
      return `+${crop.code}`;
    case 'present':
      return crop.code;
    case 'unknown':
      return `${crop.code}: not in the catalogue`;
    case 'outside the field period':
      return `${crop.code}: field not on the farm that year`;
  }
}

/** One line per feature and per field only in Akker: status, how it was matched, what differs, the crop. */
export function reviewTable(review: Review, crops: CropPlan[]): string {
  const lines = [`${cell('#', 5)} ${cell('name', 28)} ${cell('status', 13)} ${cell('match', 20)} ${cell('differs', 30)} crop`];
  review.parcels.forEach((entry, index) => {
    const { parcel } = entry;
    const match =
      entry.status === 'unchanged' || entry.status === 'changed'
        ? entry.matchedBy === 'source id'
          ? 'by source id'
          : `by overlap ${entry.overlap!.toFixed(3)}`
        : entry.status === 'refused' && entry.field
          ? 'source id, kept'
          : '';
    const differs = entry.status === 'changed' ? entry.differences.join(', ') : entry.status === 'refused' ? entry.reason : '';
    lines.push(
      `${cell(String(parcel.feature), 5)} ${cell(shownName(parcel), 28)} ${cell(entry.status, 13)} ${cell(match, 20)} ${cell(differs, 30)} ${cropCell(crops[index]!)}`,
    );
  });
  for (const field of review.onlyInAkker) {
    lines.push(`${cell('-', 5)} ${cell(field.properties.b_name, 28)} ${cell('only in Akker', 13)} ${cell(field.id, 20)}`);
  }
  return lines.join('\n');
}

export interface Counts {
  /** Features of the file whose names were made up. */
  madeUpNames: number;
  new: number;
  unchanged: number;
  changed: number;
  refused: number;
  onlyInAkker: number;
}

export function countsOf(review: Review): Counts {
  const count = (status: string) => review.parcels.filter((entry) => entry.status === status).length;
  return {
    madeUpNames: review.parcels.filter((entry) => entry.parcel.nameMadeUp).length,
    new: count('new'),
    unchanged: count('unchanged'),
    changed: count('changed'),
    refused: count('refused'),
    onlyInAkker: review.onlyInAkker.length,
  };
}

/** The note on made-up names, in the review and the summary. */
const madeUpNote = (counts: Counts) =>
  counts.madeUpNames === 0
    ? ''
    : `; ${counts.madeUpNames} name${counts.madeUpNames === 1 ? '' : 's'} made up (the file states none; --name-from PROPERTY takes them from a property)`;

export const reviewLine = (counts: Counts) =>
  `${counts.new} new, ${counts.unchanged} unchanged, ${counts.changed} changed, ${counts.onlyInAkker} only in Akker, ${counts.refused} refused by the local checks${madeUpNote(counts)}`;

/** Everything the local checks, the catalogue and Akker refused, one line each with its reason. */
export function refusals(review: Review, crops: CropPlan[], outcomes: Outcomes | undefined): string[] {
  const lines: string[] = [];
  review.parcels.forEach((entry, index) => {
    const what = `feature ${entry.parcel.feature} (${shownName(entry.parcel)})`;
    if (entry.status === 'refused') lines.push(`${what}: not sent: ${entry.reason}`);
    const crop = crops[index]!;
    if (crop.state === 'unknown') lines.push(`${what}: crop code ${crop.code} is not in Akker's crop catalogue: no cultivation added`);
  });
  for (const { what, reason } of outcomes?.refused ?? []) lines.push(`${what}: Akker refused it: ${reason}`);
  return lines;
}

export function summary(counts: Counts, outcomes: Outcomes, options: { update: boolean; deleteMissing: boolean }): string {
  const parts = [
    `created ${outcomes.created}`,
    `updated ${outcomes.updated}`,
    `deleted ${outcomes.deleted}`,
    `unchanged ${counts.unchanged}`,
    `cultivations added ${outcomes.cultivationsAdded}`,
  ];
  if (!options.update && counts.changed > 0) parts.push(`changed but not updated ${counts.changed} (use --update)`);
  if (!options.deleteMissing && counts.onlyInAkker > 0) parts.push(`only in Akker, kept ${counts.onlyInAkker} (use --delete-missing)`);
  return `${parts.join(', ')}${madeUpNote(counts)}`;
}
