// The year a norms request asks for: the one it sends, or the current year; a year without norms is 422.
import { DomainError } from '../../core/domain-errors.js';
import { currentYear, yearOf } from '../dates.js';
import { asNormYear, NORM_YEARS, type NormYear } from './tables.js';

export function requestedNormYear(body: { year?: number | undefined }): NormYear {
  const year = body.year ?? yearOf(currentYear().start);
  const known = asNormYear(year);
  if (!known)
    throw new DomainError(
      'unprocessable-entity',
      `No usage norms are known for ${year}, the current year: send "year" ${NORM_YEARS.join(' or ')}.`,
    );
  return known;
}
