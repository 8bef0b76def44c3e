export { isBadPort, portOf } from './bad-ports';
export { addressSpaceOf, isMorePrivate, type AddressSpace } from './address-space';
