// The waterfall's pure layout: phases, rows, connection lanes, the time axis and the virtual
// window. The DOM is drawn by extension/waterfall/.
export * from './phases';
export * from './rows';
export * from './connections';
export * from './axis';
export * from './virtual-window';
export * from './model';
export * from './details';
