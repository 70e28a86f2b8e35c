export { buildEntityOrders, finishEntityOrders, startEntityOrders, type EntityOrderFiles, type EntityOrderInputs, type EntityOrderOptions, type StartedEntityOrders } from './entity-orders.js';
