import { z } from 'zod';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';

export const ZSubsidiary = z
  .object({
    Id: z.string(),
    Name: z.string(),
  })
  .meta({ id: 'Subsidiary' });
export type TSubsidiary = z.infer<typeof ZSubsidiary>;

export const ZGetSubsidiaryInput = input({ id: ZPathId });
export const ZFindSubsidiariesInput = input({ ...ZQueryPage });
export const ZSubsidiaryPage = pageOf(ZSubsidiary).meta({ id: 'SubsidiaryPage' });
