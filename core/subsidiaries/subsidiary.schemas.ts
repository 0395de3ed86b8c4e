import { z } from 'zod';
import { ZPage, ZPathId, input, pageOf } from '../shared/schemas.js';

export const ZSubsidiary = z
  .object({
    Id: z.string(),
    Name: z.string(),
  })
  .meta({ id: 'Subsidiary' });
export type TSubsidiary = z.infer<typeof ZSubsidiary>;

export const ZGetSubsidiaryInput = input({ id: ZPathId });
export const ZFindSubsidiariesInput = input({ ...ZPage });
export const ZSubsidiaryPage = pageOf(ZSubsidiary).meta({ id: 'SubsidiaryPage' });
