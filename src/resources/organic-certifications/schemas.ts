// The organic certification on the wire: its TRACES and SKAL numbers and the dates it is valid between.
import { z } from '@hono/zod-openapi';
import { dateSchema } from '../../http/dates.js';
import { unprocessable } from '../../http/validation.js';
import { recordTimesShape } from '../record-times.js';

/** A TRACES document number of an organic operator certificate, as the EU issues it for Dutch farms. */
const TRACES_NUMBER = /^NL-BIO-[0-9]{2}\.[0-9]{3}-[0-9]{7}\.[0-9]{4}\.[0-9]{3}$/;
/** A SKAL registration number: six digits. */
const SKAL_NUMBER = /^[0-9]{6}$/;

const descriptions = {
  b_id_organic: 'Organic certification identifier.',
  b_id_farm: 'Identifier of the certified farm.',
  b_organic_traces: 'TRACES document number of the certificate (NL-BIO-dd.ddd-ddddddd.dddd.ddd); null when not given.',
  b_organic_skal: 'SKAL number of the farm (six digits); null when not given.',
  b_organic_issued: 'First day the certification is valid.',
  b_organic_expires: 'Last day the certification is valid; not before b_organic_issued.',
};

const expiresNotBeforeIssued = (c: { b_organic_issued: string; b_organic_expires: string }, ctx: z.RefinementCtx) => {
  if (c.b_organic_expires < c.b_organic_issued) {
    ctx.addIssue({ code: 'custom', path: ['b_organic_expires'], message: 'must not be before b_organic_issued', params: unprocessable });
  }
};

export const organicCertificationCreateSchema = z
  .strictObject({
    b_organic_traces: z
      .string()
      .regex(TRACES_NUMBER, 'must be a TRACES number NL-BIO-dd.ddd-ddddddd.dddd.ddd')
      .nullable()
      .optional()
      .openapi({ description: descriptions.b_organic_traces, example: 'NL-BIO-01.528-0002967.2025.001' }),
    b_organic_skal: z
      .string()
      .regex(SKAL_NUMBER, 'must be a SKAL number of six digits')
      .nullable()
      .optional()
      .openapi({ description: descriptions.b_organic_skal, example: '026281' }),
    b_organic_issued: dateSchema.openapi({ description: descriptions.b_organic_issued, example: '2025-01-01' }),
    b_organic_expires: dateSchema.openapi({ description: descriptions.b_organic_expires, example: '2025-12-31' }),
  })
  .superRefine(expiresNotBeforeIssued)
  .openapi('OrganicCertificationCreate', { description: 'Both numbers are optional; both dates are required.' });

export const organicCertificationSchema = z
  .object({
    b_id_organic: z.string().openapi({ description: descriptions.b_id_organic }),
    b_id_farm: z.string().openapi({ description: descriptions.b_id_farm }),
    b_organic_traces: z.string().nullable().openapi({ description: descriptions.b_organic_traces }),
    b_organic_skal: z.string().nullable().openapi({ description: descriptions.b_organic_skal }),
    b_organic_issued: z.string().openapi({ format: 'date', description: descriptions.b_organic_issued }),
    b_organic_expires: z.string().openapi({ format: 'date', description: descriptions.b_organic_expires }),
    ...recordTimesShape,
  })
  .openapi('OrganicCertification');

export type OrganicCertificationCreate = z.infer<typeof organicCertificationCreateSchema>;
export type OrganicCertification = z.infer<typeof organicCertificationSchema>;
