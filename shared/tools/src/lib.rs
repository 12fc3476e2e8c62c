//! The ledger tools of TOOLS.md, each declared once: schemas, annotations, scope, handler.
