import { z } from 'zod';
import { input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';
import { queryEnumList } from '../shared/enum-lists.js';

/** The entities a reference definition can apply to. */
export const REFERENCE_ENTITIES = ['Trip', 'Load'] as const;

export const ZReferenceDefinition = z
  .object({
    Id: z.string().meta({ description: 'The ReferenceId to send when adding a reference.' }),
    Name: z.string(),
    Type: z.string().meta({ description: 'Text, Date (values yyyy-MM-dd), …' }),
    Entities: z.array(z.string()).meta({ description: 'Trip, Load.' }),
  })
  .meta({ id: 'ReferenceDefinition' });
export type TReferenceDefinition = z.infer<typeof ZReferenceDefinition>;

export const ZReferenceDefinitionPage = pageOf(ZReferenceDefinition).meta({ id: 'ReferenceDefinitionPage' });

export const ZFindReferenceDefinitionsInput = input({
  ...ZQueryPage,
  entities: queryEnumList(REFERENCE_ENTITIES)
    .optional()
    .meta({ description: 'Only definitions for any of these entities (Trip, Load); all definitions when absent.' }),
});
