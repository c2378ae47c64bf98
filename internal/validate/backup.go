package validate

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The texts of the backup and recovery checks that are not the model's.
const (
	msgRestoreTimeBoth = "Only one of RestoreDateTime or UseLatestRestorableTime can be specified"
	msgRestoreSource   = "Either SourceTableArn or SourceTableName must be specified"
)

// CreateBackup checks a CreateBackup request's model.
func CreateBackup(in *protocol.CreateBackupInput) error {
	if err := requireTableName(in.TableName); err != nil {
		return err
	}
	var v violations
	tableNameModel(&v, in.TableName, "tableName")
	if v.present(in.BackupName == nil, "backupName") {
		v.name(*in.BackupName, "backupName")
	}
	return v.err()
}

// BackupArn checks the one member of DescribeBackup and DeleteBackup.
func BackupArn(arn *string) error {
	var v violations
	if v.present(arn == nil, "backupArn") {
		v.length(*arn, "backupArn", 37, 1024)
	}
	return v.err()
}

// ListBackups checks a ListBackups request's model.
func ListBackups(in *protocol.ListBackupsInput) error {
	var v violations
	if in.TableName != nil {
		tableNameModel(&v, in.TableName, "tableName")
	}
	v.atLeast(in.Limit, "limit", 1)
	v.atMost(in.Limit, "limit", 100)
	v.enum(in.BackupType, "backupType", []string{"USER", "SYSTEM", "AWS_BACKUP", "ALL"})
	if in.ExclusiveStartBackupArn != nil {
		v.length(*in.ExclusiveStartBackupArn, "exclusiveStartBackupArn", 37, 1024)
	}
	return v.err()
}

// RestoreTableFromBackup checks the request's model, then refuses what
// sortkey does not implement.
func RestoreTableFromBackup(in *protocol.RestoreTableFromBackupInput) error {
	var v violations
	restoreTarget(&v, in.TargetTableName, &in.RestoreOverrides)
	if v.present(in.BackupArn == nil, "backupArn") {
		v.length(*in.BackupArn, "backupArn", 37, 1024)
	}
	if err := v.err(); err != nil {
		return err
	}
	return Refused(&in.RestoreOverrides)
}

// RestoreTableToPointInTime checks the request's model, the choice of
// source and of moment, then refuses what sortkey does not implement.
func RestoreTableToPointInTime(in *protocol.RestoreTableToPointInTimeInput) error {
	var v violations
	restoreTarget(&v, in.TargetTableName, &in.RestoreOverrides)
	if in.SourceTableName != nil {
		tableNameModel(&v, in.SourceTableName, "sourceTableName")
	}
	if err := v.err(); err != nil {
		return err
	}
	if in.SourceTableName == nil && in.SourceTableArn == nil {
		return apierr.Validationf(msgRestoreSource)
	}
	if in.RestoreDateTime != nil && in.UseLatestRestorableTime != nil && *in.UseLatestRestorableTime {
		return apierr.Validationf(msgRestoreTimeBoth)
	}
	return Refused(&in.RestoreOverrides)
}

func restoreTarget(v *violations, name *string, o *protocol.RestoreOverrides) {
	if v.present(name == nil, "targetTableName") {
		v.name(*name, "targetTableName")
	}
	v.enum(o.BillingModeOverride, "billingModeOverride", []string{"PROVISIONED", "PAY_PER_REQUEST"})
}

// UpdateContinuousBackups checks the request's model; RecoveryPeriodInDays
// is 1 to 35.
func UpdateContinuousBackups(in *protocol.UpdateContinuousBackupsInput) error {
	if err := requireTableName(in.TableName); err != nil {
		return err
	}
	var v violations
	tableNameModel(&v, in.TableName, "tableName")
	s := in.PointInTimeRecoverySpecification
	if v.present(s == nil, "pointInTimeRecoverySpecification") {
		v.present(s.PointInTimeRecoveryEnabled == nil, "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled")
		v.atLeast(s.RecoveryPeriodInDays, "pointInTimeRecoverySpecification.recoveryPeriodInDays", 1)
		v.atMost(s.RecoveryPeriodInDays, "pointInTimeRecoverySpecification.recoveryPeriodInDays", 35)
	}
	return v.err()
}
