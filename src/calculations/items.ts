// A balance's figure per record (an application, a cultivation, a harvest): exact in decimals, rounded in the answer.
import { roundOutput, sum, type Dec } from './numbers.js';

export interface Item {
  id: string;
  value: Dec;
}

export interface OutputItem {
  id: string;
  value: number;
}

export const total = (items: Array<{ value: Dec }>): Dec => sum(items.map((item) => item.value));

/** Each item as the answer shows it, its value rounded on its own. */
export const outputItems = (list: Item[]): OutputItem[] => list.map((item) => ({ id: item.id, value: roundOutput(item.value) }));
