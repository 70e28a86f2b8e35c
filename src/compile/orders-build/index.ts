export { buildEntityOrders, type EntityOrderFiles, type EntityOrderInputs, type EntityOrderOptions } from './entity-orders.js';
