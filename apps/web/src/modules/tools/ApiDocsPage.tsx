import { useEffect } from 'react';
import { menuTitle } from '../../app/i18n';
import { authHeaders } from '../../app/session';

/** Where the server serves its local Swagger UI (apps/server/src/crud/apiDocs.ts). */
export const API_DOCS_UI = '/api-docs/ui/';

/**
 * 系统工具 › 接口文档: the server's Swagger UI (generated from the routes' own schemas, served locally, no CDN)
 * in a frame of our own origin. The frame asks this window for the session's headers (`__apiDocsHeaders`: the
 * CSRF token of the cookie session) so that the document and "Try it out" calls carry them; the server lets only ADMIN or API_DOCS_* read the document.
 */
export default function ApiDocsPage() {
  useEffect(() => {
    const w = window as unknown as { __apiDocsHeaders?: () => Record<string, string> };
    w.__apiDocsHeaders = authHeaders;
    return () => {
      delete w.__apiDocsHeaders;
    };
  }, []);
  return (
    <iframe
      title={menuTitle('接口文档')}
      src={API_DOCS_UI}
      data-testid="api-docs-frame"
      style={{ width: '100%', height: 'calc(100vh - 140px)', minHeight: 480, border: 0, background: '#fff' }}
    />
  );
}
