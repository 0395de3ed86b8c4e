import { testFixture } from '../harness.js';

export const HEARTLAND_VISIBILITY_URL = 'https://visibility.heartland.test/waybill';
export const PDF_BASE64 = 'JVBERi0xLjQKJSVFT0YK';

/**
 * The test fixture with what the document tests need beyond the demo data: a visibility
 * integration for cus_heartland (customer of L-1001), a deleted document on L-1001, and
 * documents and a carrier in tn_harbor, so "another tenant's id" names records that exist.
 */
export function documentFixture(): any {
  const fixture = testFixture();
  const [prairie, harbor] = fixture.Tenants;
  prairie.Customers.find((c: any) => c.Id === 'cus_heartland').VisibilityUrl = HEARTLAND_VISIBILITY_URL;
  const l1001 = prairie.Loads.find((l: any) => l.LoadNumber === 'L-1001');
  l1001.Documents.push({
    id: 'doc_1001_deleted',
    AttachmentType: 'Shipping Labels',
    FileName: 'labels.pdf',
    ContentBase64: PDF_BASE64,
    UploadedAt: '2026-11-19T10:00:00Z',
    IsDeleted: true,
  });
  l1001.Trips[0].Documents.push({
    id: 'doc_1001_a_deleted',
    AttachmentType: 'Bill of Lading',
    FileName: 'old-bol.pdf',
    ContentBase64: PDF_BASE64,
    IsDeleted: true,
  });
  const h1 = harbor.Loads.find((l: any) => l.LoadNumber === 'H-1');
  h1.Documents = [{ id: 'doc_h_1_bol', AttachmentType: 'Bill of Lading', FileName: 'h-bol.pdf', ContentBase64: PDF_BASE64 }];
  h1.Trips[0].Documents = [{ id: 'doc_h_1_a_pod', AttachmentType: 'Proof of Delivery', FileName: 'h-pod.pdf', ContentBase64: PDF_BASE64 }];
  harbor.Carriers = [
    ...(harbor.Carriers ?? []),
    {
      Id: 'car_harbor_tow',
      Name: 'Harbor Tow Co',
      Documents: [{ id: 'doc_h_car_agreement', AttachmentType: 'Carrier Agreement', FileName: 'h-agreement.pdf', ContentBase64: PDF_BASE64 }],
    },
  ];
  return fixture;
}
