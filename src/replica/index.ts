export { Replica, type ReplicaEvent, type ReplicaOptions, type ReplicaStatus } from './replica.js';
export { BuildCache } from './build-cache.js';
