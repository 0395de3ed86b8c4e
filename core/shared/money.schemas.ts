import { z } from 'zod';

/** Money as every domain prints it: exact amount and ISO 4217 numeric code (core/shared/money.ts converts). */
export const ZMoney = z
  .object({
    Amount: z.number().meta({ description: 'Exact amount, at most 2 decimals.', example: 1850 }),
    Currency: z.number().int().nullable().meta({ description: 'ISO 4217 numeric code; 840 (USD) by default.', example: 840 }),
  })
  .meta({ id: 'Money' });
