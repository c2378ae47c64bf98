package protocol

type TimeToLiveSpecification struct {
	Enabled       *bool   `json:"Enabled,omitempty"`
	AttributeName *string `json:"AttributeName,omitempty"`
}

type UpdateTimeToLiveInput struct {
	TableName               *string                  `json:"TableName,omitempty"`
	TimeToLiveSpecification *TimeToLiveSpecification `json:"TimeToLiveSpecification,omitempty"`
}

type UpdateTimeToLiveOutput struct {
	TimeToLiveSpecification *TimeToLiveSpecification `json:"TimeToLiveSpecification,omitempty"`
}

type DescribeTimeToLiveInput struct {
	TableName *string `json:"TableName,omitempty"`
}

type TimeToLiveDescription struct {
	TimeToLiveStatus string `json:"TimeToLiveStatus"`
	AttributeName    string `json:"AttributeName,omitempty"`
}

type DescribeTimeToLiveOutput struct {
	TimeToLiveDescription *TimeToLiveDescription `json:"TimeToLiveDescription"`
}
