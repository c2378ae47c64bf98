// Package attr is DynamoDB's attribute value model: the Value type that
// request and response JSON decode into, and everything the engine needs
// to know about values without knowing about tables.
//
//   - Validate and ValidateItem check values exactly as the service does
//     and return its ValidationException message texts; they also
//     normalize numbers in place, so later code may compare N strings.
//   - NormalizeNumber, Decimal and FormatDecimal implement DynamoDB's
//     numbers: decimal, 38 significant digits, magnitudes 1E-130 to
//     9.99...E+125, never float64.
//   - Size prices items by the Developer Guide's item-size rules.
//   - Compare and Equal give key ordering and deep equality.
//   - AppendKey and DecodeKey are the order-preserving key encoding used
//     for storage keys; AppendItem and DecodeItem are the on-disk item
//     encoding; AppendJSON and AppendItemJSON write wire JSON.
//
// Nothing here knows about tables, expressions or storage; the package
// depends only on apd.
package attr
