package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// creation stores one named entity.
type creation struct {
	kind, id, name, nameKey string
	keys                    keys
	entity                  any
	extra                   []step // id records, counters of parents and referenced items
}

// create is one transaction: the entity if its key is new, its name
// record if the name is free (always the second action, so a caller can
// find it in CancellationReasons), and the extra steps.
func (s *Store) create(ctx context.Context, c creation) error {
	if err := valid(c.kind, c.id, c.name); err != nil {
		return err
	}
	item, err := marshal(c.keys, c.entity)
	if err != nil {
		return err
	}
	steps := []step{s.putNew(item, failure(ErrExists, c.kind, c.id)), s.putName(c.nameKey, c.kind, c.id, c.name)}
	return s.transact(ctx, append(steps, c.extra...)...)
}

// putID reserves the id of an entity whose own key is under its parent,
// where attribute_not_exists cannot see the same id under another parent.
func (s *Store) putID(idKey, kind, id string) step {
	return s.putNew(record(idKey, id, ""), failure(ErrExists, kind, id))
}

func (s *Store) dropID(idKey, kind, id string) step {
	return s.del(self(idKey), "id = :id", vals{":id": str(id)}, failure(ErrConflict, kind, id))
}

// renaming moves one entity's name.
type renaming struct {
	kind, id       string
	entity         keys   // the entity's primary key
	from, to       string // the old and the new name
	fromKey, toKey string // their name records' keys, also the entity's GSI2 key
}

// rename is one transaction: delete the old name record if it is still
// this entity's, put the new one if the name is free, and rename the
// entity if its name is still the one the caller read.
func (s *Store) rename(ctx context.Context, r renaming) error {
	if err := valid(r.kind, r.id, r.to); err != nil {
		return err
	}
	if r.from == r.to {
		return nil // a delete and a put of one record cannot share a transaction
	}
	return s.transact(ctx,
		s.dropName(r.fromKey, r.kind, r.id),
		s.putName(r.toKey, r.kind, r.id, r.to),
		s.update(r.entity, "SET #name = :to, GSI2PK = :key, GSI2SK = :key", "#name = :from",
			vals{":to": str(r.to), ":from": str(r.from), ":key": str(r.toKey)}, failure(ErrConflict, r.kind, r.id)))
}

// removal deletes one entity and frees its name.
type removal struct {
	kind, id, nameKey string
	entity            keys
	expect            vals   // attributes as the caller read them: name, counters that must be 0, references
	busy              bool   // it has children or is referenced, so it must stay
	extra             []step // id records, counters of parents and referenced items
}

// remove is one transaction: the entity if it is still as the caller read
// it (so nothing was added under it since), its name record and the
// extra steps.
func (s *Store) remove(ctx context.Context, r removal) error {
	if r.busy {
		return failure(ErrInUse, r.kind, r.id)
	}
	cond, v := unchanged(r.expect)
	steps := []step{s.del(r.entity, cond, v, failure(ErrConflict, r.kind, r.id)), s.dropName(r.nameKey, r.kind, r.id)}
	return s.transact(ctx, append(steps, r.extra...)...)
}

var zero types.AttributeValue = &types.AttributeValueMemberN{Value: "0"}
