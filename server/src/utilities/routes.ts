/**
 * POST /messages/print (shape not shown by the contract; docs/customers.md):
 * the point of sale sends the messages to print on a receipt and gets them
 * back as printer-ready lines of at most `width` characters, each message
 * repeated `copies` times, messages separated by an empty line. A customer_id,
 * when sent, must be a customer of the Company.
 */
import type { ServerContext } from '../context.js';
import { findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wrap } from './wrap.js';

export function utilitiesRoutes({ env }: ServerContext): Routes {
  const customers = new CustomerStore(env);
  return {
    'messages.print': (req) => {
      const body = validate('messages.print', req.body);
      if (body.customer_id !== undefined) findCustomer(customers, req.tenant, 'id', body.customer_id, 'customer_id');
      const blocks = body.messages.flatMap((message) => Array.from({ length: message.copies }, () => wrap(message.text, body.width)));
      const lines = blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
      return success({ width: body.width, lines });
    },
  };
}
