export { StoreError, isStoreError, type StoreErrorCode } from './store-error.js';
export { isStoreUrl, parseStoreUrl, storeUrl, type StoreLocation } from './store-url.js';
export type { GetOptions, ObjectInfo, ObjectStore, PutOptions, StoredObject } from './object-store.js';
export { S3ObjectStore, s3ClientConfig } from './s3-object-store.js';
export { chunkFile, type ChunkedFile, type FileChunk, CHUNK_MAX, CHUNK_MIN } from './chunker.js';
export * from './remote-layout.js';
