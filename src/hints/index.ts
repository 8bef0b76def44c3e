export * from './hint-types';
export * from './site-template';
export * from './observe-visit';
export * from './learned-state';
export * from './learned-state-json';
export * from './hint-list';
export * from './hint-outcome';
export * from './dnr-rules';
