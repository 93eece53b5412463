import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { tripDocuments } from '../../../db/schema/index.ts';
import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import type { EmailPreviews } from '../../mail/previews.ts';
import { documentsContext } from './send.ts';

/** The documents email's preview: the trip's own documents, or two examples when it has none. */
export function previews({ db, operator }: { db: Db; operator: Operator }): EmailPreviews {
  return {
    trip_documents: async (b) => {
      const docs = await db
        .select({ name: tripDocuments.name })
        .from(tripDocuments)
        .where(and(eq(tripDocuments.tripId, b.booking.tripId), isNotNull(tripDocuments.storedFile)))
        .orderBy(asc(tripDocuments.id));
      return documentsContext(
        b.booking,
        b.trip,
        docs.length ? docs.map((d) => d.name) : ['Kit list', 'Itinerary'],
        operator,
        portalPreviewUrl(operator.portalLinks),
      );
    },
  };
}
