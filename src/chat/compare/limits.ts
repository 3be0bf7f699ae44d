/** How many deployments one compare takes (apart, so the command's picker needs none of the runner). */
export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;
