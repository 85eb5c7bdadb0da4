export { memoryStore } from './memory';
export { isAgentName, isTenantName } from './names';
export { openCardStore } from './writer';
export type { CardStore, CardStoreOptions } from './card-store';
export type {
  CardStoreDriver,
  StoreChange,
  StoreEvent,
  StoreKey,
  StorePage,
  StorePutOptions,
  StoreRecord,
} from './types';
