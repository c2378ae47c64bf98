package engine

// pitrMeta is a table's point-in-time recovery setting.
type pitrMeta struct {
	Enabled bool  `json:"enabled"`
	Since   int64 `json:"since"`  // Unix microseconds it was last enabled
	Period  int64 `json:"period"` // days kept (RecoveryPeriodInDays)
}
