// A statement of a hot read path, turned into SQL text once: on PostgreSQL, building the SQL on every
// request costs about as much as running it. Its values are drizzle placeholders, filled per call.
import { is, Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { plannedOnce } from './planned-once.js';

const dialect = new PgDialect();

type Slot = { placeholder: string } | { value: unknown };

export class Statement<Row, Values extends Record<string, unknown>> {
  readonly text: string;
  readonly #slots: readonly Slot[];

  /** `name` stands for this one SQL text: a PostgreSQL server plans it once per connection under that name, PGlite once. */
  constructor(
    readonly name: string,
    query: SQL,
  ) {
    const { sql, params } = dialect.sqlToQuery(plannedOnce(query));
    this.text = sql;
    this.#slots = params.map((param) => (is(param, Placeholder) ? { placeholder: param.name } : { value: param }));
  }

  /** The parameters of one execution, in order. */
  params(values: Values): unknown[] {
    return this.#slots.map((slot) => {
      if (!('placeholder' in slot)) return slot.value;
      if (!(slot.placeholder in values)) throw new Error(`Statement ${this.name}: no value for ${slot.placeholder}`);
      return values[slot.placeholder];
    });
  }

  /** A marker for the row type, so that `DatabaseHandle.rows` can infer it. */
  declare readonly row?: Row;
}
