export {
  addReleaseOrders,
  buildEntityOrders,
  continueEntityOrders,
  finishEntityOrders,
  startEntityOrders,
  type EntityOrderFiles,
  type OrdersBeforeRelease,
  type EntityOrderInputs,
  type EntityOrderOptions,
  type StartedEntityOrders,
} from './entity-orders.js';
