export { buildEntityOrders, type EntityOrderFiles, type EntityOrderInputs } from './entity-orders.js';
