import { z } from 'zod';
import { ZPathId, input } from '../shared/schemas.js';

const body = {
  Name: z.string().min(1).max(50).meta({ description: "At most 50 characters; for a catalog-backed reference, the definition's name." }),
  Value: z.string().min(1).max(40).meta({ description: 'At most 40 characters; yyyy-MM-dd for a Date definition.' }),
};

export const ZCreateTripReferenceInput = input({
  tripId: ZPathId,
  ...body,
  ReferenceId: ZPathId.nullish().meta({ description: 'A catalog definition for trips; the value is validated against it.' }),
});

export const ZUpdateTripReferenceInput = input({
  tripId: ZPathId,
  referenceId: ZPathId.meta({ description: 'The reference instance id (Id).' }),
  ...body,
  ReferenceId: ZPathId.nullish().meta({
    description: 'A catalog definition for trips; absent keeps the current one, null makes the reference a free one.',
  }),
});

export const ZIfMatchHeader = z.object({
  'If-Match': z.string().min(1).meta({
    description: "The trip's current ETag (from the trip read or a prior write), quoted or bare; `*` matches any version, a weak tag never does.",
    example: '"trp_1001_a.4"',
  }),
});
