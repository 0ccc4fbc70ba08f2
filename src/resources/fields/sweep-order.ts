// The segments a sweep line currently crosses, bottom to top: a skip list, so that inserting a
// segment costs O(log n) expected, and its neighbours and its removal O(1) given its node. A node
// is removed through its own links, never looked up again by comparing, so an imprecise comparison
// can misplace a segment but never lose one.

interface Links<T> {
  /** The next node above at each level this one reaches (undefined at the top of that level). */
  readonly up: Array<SweepNode<T> | undefined>;
  /** The next node below at each level (the head at the bottom of that level). */
  readonly down: Array<Links<T>>;
}

export interface SweepNode<T> extends Links<T> {
  readonly item: T;
}

const MAX_LEVELS = 24;

export class SweepOrder<T> {
  private readonly head: Links<T> = { up: [], down: [] };
  private levels = 1;
  /** Per level, the node the one being inserted goes right after (reused, not allocated per insertion). */
  private readonly after: Array<Links<T>> = new Array(MAX_LEVELS);

  /** `liesAbove(item, other)`: whether `item`, joining the sweep, goes above `other`, which the sweep crosses. */
  constructor(private readonly liesAbove: (item: T, other: T) => boolean) {}

  /** Places `item` right above the items it lies above (which must be the lowest ones). */
  insert(item: T): SweepNode<T> {
    const after = this.after;
    let links = this.head;
    for (let level = this.levels - 1; level >= 0; level--) {
      for (let next = links.up[level]; next !== undefined && this.liesAbove(item, next.item); next = links.up[level]) links = next;
      after[level] = links;
    }
    const height = randomHeight();
    for (; this.levels < height; this.levels++) after[this.levels] = this.head;
    const node: SweepNode<T> = { item, up: [], down: after.slice(0, height) };
    for (const [level, below] of node.down.entries()) {
      const above = below.up[level];
      node.up[level] = above;
      if (above) above.down[level] = node;
      below.up[level] = node;
    }
    return node;
  }

  remove(node: SweepNode<T>): void {
    for (const [level, below] of node.down.entries()) {
      const above = node.up[level];
      below.up[level] = above;
      if (above) above.down[level] = below;
    }
  }

  /** The node right above or right below `node`, if any. */
  next(node: SweepNode<T>, direction: 'up' | 'down'): SweepNode<T> | undefined {
    if (direction === 'up') return node.up[0];
    const below = node.down[0];
    return below !== undefined && this.isNode(below) ? below : undefined;
  }

  private isNode(links: Links<T>): links is SweepNode<T> {
    return links !== this.head;
  }
}

/** 1 with probability 1/2, 2 with 1/4, …: how many levels a new node reaches. */
function randomHeight(): number {
  let height = 1;
  while (height < MAX_LEVELS && Math.random() < 0.5) height++;
  return height;
}
