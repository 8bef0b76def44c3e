// The parser and matcher are pure and live in src/ (the extension validates its settings with them).
export { HostMappingError, mapTarget, parseConnectTo, parseResolve, type HostMapping } from '../../src/targets/host-mapping';
