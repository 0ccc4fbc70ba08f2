// How much an import reads. A farm's files are small (an RVO export of a large farm is a few MB), so anything far
// larger is refused, with a message, before it fills memory: the file, what a .zip unpacks to, and the features.

const MIB = 1024 * 1024;

/** The most bytes of a file read whole, and the most a .zip may unpack to, all its entries together. */
export const MAX_READ_BYTES = 64 * MIB;
/** The most an entry of a .zip may grow by when unpacked (shapefiles pack to a third or a tenth) … */
export const MAX_PACKING_RATIO = 100;
/** … once it is larger than this: a small entry of spaces packs tighter without being a bomb. */
export const RATIO_FROM_BYTES = MIB;
/** The most features a file may have: far more fields than a farm has. */
export const MAX_FEATURES = 10_000;

export const megabytes = (bytes: number) => `${(bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MB`;
