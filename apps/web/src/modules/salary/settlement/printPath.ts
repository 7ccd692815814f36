/** Where the printable statement lives (a page of this app outside the menu layout, opened in its own tab). */
export const SETTLEMENT_PRINT_ROUTE = '/print/settlement/:id';
export const settlementPrintPath = (id: number) => `/print/settlement/${id}`;
