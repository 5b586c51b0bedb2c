// The lifecycle states of an order, apart from the provider state (which holds orders) so that the
// records, which the provider state imports, can name them.

/**
 * The lifecycle states of an order. Only provider states carry them; the public interface never sends one.
 * @example
 * orderStatuses // ['pending', 'shipped', 'cancelled']
 */
export const orderStatuses = ['pending', 'shipped', 'cancelled'] as const;
/**
 * @example
 * const status: OrderStatus = 'shipped';
 */
export type OrderStatus = (typeof orderStatuses)[number];
