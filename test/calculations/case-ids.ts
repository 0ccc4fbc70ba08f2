// The identifiers of a reference case's records (its own, like "C-A1") and the ones Akker gave them when
// the test stored the records through the API, in both directions.
export class CaseIds {
  readonly #ours = new Map<string, string>();
  readonly #locals = new Map<string, string>();
  set(local: string, ours: string) {
    this.#ours.set(local, ours);
    this.#locals.set(ours, local);
  }
  get(local: string): string {
    const id = this.#ours.get(local);
    if (!id) throw new Error(`no record for ${local}`);
    return id;
  }
  /** Replaces every local identifier in `text` (longest first: auto-C-A1 before C-A1). */
  toOurs(text: string): string {
    const locals = [...this.#ours.keys()].sort((a, b) => b.length - a.length);
    let result = text;
    for (const local of locals)
      result = result.replace(new RegExp(`(?<![\\w-])${local.replace(/[-]/g, '\\-')}(?![\\w-])`, 'g'), this.#ours.get(local)!);
    return result;
  }
  /** The answer with Akker's identifiers (members b_id, p_app_id and lists of field ids) put back to the case's. */
  toLocal(value: unknown): unknown {
    if (typeof value === 'string') return this.#locals.get(value) ?? value;
    if (Array.isArray(value)) return value.map((v) => this.toLocal(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.toLocal(v)]));
    return value;
  }
}
