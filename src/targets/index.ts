export { isBadPort, portOf } from './bad-ports';
export { addressSpaceOf, isMorePrivate, type AddressSpace } from './address-space';
export { HostMappingError, MAX_HOST_MAPPINGS, MAX_HOST_MAPPING_LENGTH, mapTarget, parseConnectTo, parseResolve, type HostMapping } from './host-mapping';
