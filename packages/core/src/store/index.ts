export { memoryStore } from './memory';
export type {
  CardStoreDriver,
  StoreChange,
  StoreEvent,
  StoreKey,
  StorePage,
  StorePutOptions,
  StoreRecord,
} from './types';
