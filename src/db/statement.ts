// A statement of a hot path (a read, a write's access check and audit entry), turned into SQL text once:
// building the SQL on every request costs about as much as running it. Its values are drizzle
// placeholders, filled per call, on the pool (`DatabaseHandle.rows`) or in a transaction (`query`).
import { is, Param, Placeholder, SQL, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { plannedOnce } from './planned-once.js';

const dialect = new PgDialect();

type Slot = { placeholder: string } | { value: unknown };

export class Statement<Row, Values extends Record<string, unknown>> {
  readonly text: string;
  readonly #slots: readonly Slot[];
  /** The text between the parameters, as drizzle chunks: `query` puts the values between them. */
  readonly #pieces: readonly StringChunk[];

  /** `name` stands for this one SQL text: a PostgreSQL server plans it once per connection under that name, PGlite once. */
  constructor(
    readonly name: string,
    query: SQL,
  ) {
    const { sql, params } = dialect.sqlToQuery(plannedOnce(query));
    this.text = sql;
    this.#slots = params.map((param) => (is(param, Placeholder) ? { placeholder: param.name } : { value: param }));
    const pieces = sql.split(/\$\d+/);
    if (pieces.length !== params.length + 1) throw new Error(`Statement ${name}: its text names its parameters unlike drizzle`);
    this.#pieces = pieces.map((piece) => new StringChunk(piece));
  }

  /**
   * The statement with these values, for a transaction's `execute`: drizzle only joins its pieces and
   * values, the same text each time (so planned once too), instead of building it from the query.
   */
  query(values: Values): SQL {
    const [first, ...rest] = this.#pieces;
    const chunks: (StringChunk | Param)[] = first === undefined ? [] : [first];
    this.params(values).forEach((value, index) => chunks.push(new Param(value), rest[index] as StringChunk));
    return new SQL(chunks);
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
