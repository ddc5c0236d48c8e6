/*
 * PDF writer: draws the report model (report.h) with the layout layer in
 * pdf.h. Placeholder until report.h lands.
 */
typedef int write_pdf_placeholder_t;
