import { z } from 'zod';
import { ZPathId, input } from '../shared/schemas.js';

export const ZTrackingLinkInput = input({ loadNumber: ZPathId });

export const ZTrackingLink = z
  .object({
    Url: z
      .url()
      .meta({
        description: 'The page for the customer: `{PUBLIC_BASE_URL}/track/{token}`. Shown once; the server keeps only a hash of the token.',
        example: 'https://api.example.com/track/3q2-7wEjZqkqD8jX0vN1sYw9bC4tF6hR2mK5pL8uA0e',
      }),
    ExpiresAt: z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC: 30 days after creation.', example: '2026-12-22T12:00:00.000Z' }),
  })
  .meta({ id: 'TrackingLink' });
export type TTrackingLink = z.infer<typeof ZTrackingLink>;
