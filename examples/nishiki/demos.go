package main

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// demo is one access pattern run on the sample, with its result as rows.
type demo struct {
	name string
	run  func(ctx context.Context) (header []string, rows [][]string, err error)
}

// demos are the design's access patterns in its table's order, then the
// food writes. link is the sample's invitation link.
func demos(s *Store, link InvitationLink) []demo {
	return []demo{
		{"GetUser (UserId / User): Alice", func(ctx context.Context) ([]string, [][]string, error) {
			u, err := s.GetUser(ctx, alice)
			return []string{"UserId", "UserName", "EMailAddress"}, [][]string{{u.UserId, u.UserName, u.EMailAddress}}, err
		}},
		{"GetUser (UserId / Group#{GroupId}): is Alice in the Sato family?", func(ctx context.Context) ([]string, [][]string, error) {
			m, err := s.GetUserInGroup(ctx, alice, family)
			return []string{"UserId", "GroupId"}, [][]string{{m.UserId, m.GroupId}}, err
		}},
		{"GetUserByEMail: bob@example.com", func(ctx context.Context) ([]string, [][]string, error) {
			id, err := s.GetUserByEMail(ctx, "bob@example.com")
			return idRows("UserId")([]string{id}, err)
		}},
		{"ListOfUsersGroup: Alice's groups", func(ctx context.Context) ([]string, [][]string, error) {
			return idRows("GroupId")(s.ListOfUsersGroup(ctx, alice))
		}},
		{"GetGroup (GroupId / Group): the Sato family", func(ctx context.Context) ([]string, [][]string, error) {
			g, err := s.GetGroup(ctx, family)
			return []string{"GroupId", "GroupName", "Users"}, [][]string{{g.GroupId, g.GroupName, strings.Join(g.Users, " ")}}, err
		}},
		{"GetGroup (ContainerId): the group of the Fridge", func(ctx context.Context) ([]string, [][]string, error) {
			id, err := s.GetGroupByContainerId(ctx, fridge)
			return idRows("GroupId")([]string{id}, err)
		}},
		{"ListOfContainers: the Sato family's", func(ctx context.Context) ([]string, [][]string, error) {
			return idRows("ContainerId")(s.ListOfContainers(ctx, family))
		}},
		{"ListOfUsersInGroup: the Sato family", func(ctx context.Context) ([]string, [][]string, error) {
			return idRows("UserId")(s.ListOfUsersInGroup(ctx, family))
		}},
		{"GetContainer: the Fridge", func(ctx context.Context) ([]string, [][]string, error) {
			return containerRows(s.GetContainer(ctx, fridge))
		}},
		{"GetInvitationLinkByGroupId: the Sato family's link", func(ctx context.Context) ([]string, [][]string, error) {
			return linkRows(s.GetInvitationLinkByGroupId(ctx, family))
		}},
		{"GetInvitationLink: by the Sato family's link hash", func(ctx context.Context) ([]string, [][]string, error) {
			return linkRows(s.GetInvitationLink(ctx, link.InvitationLinkHash))
		}},
		{"AddFood: tofu into the Fridge", func(ctx context.Context) ([]string, [][]string, error) {
			f, err := s.AddFood(ctx, fridge, food(tofu, "Tofu", "pack", 2, "Soy", iso(s.Now().Truncate(24*time.Hour).AddDate(0, 0, 5))))
			return foodHeader, [][]string{foodRow(f)}, err
		}},
		{"UpdateFood (half the milk left), RemoveFood (the spinach), then GetContainer", func(ctx context.Context) ([]string, [][]string, error) {
			halfMilk := sampleGroups(s.Now())[0].containers[0].Foods[0]
			halfMilk.Quantity = aws.Float64(0.5)
			if err := s.UpdateFood(ctx, fridge, halfMilk); err != nil {
				return nil, nil, err
			}
			if err := s.RemoveFood(ctx, fridge, spinach); err != nil {
				return nil, nil, err
			}
			return containerRows(s.GetContainer(ctx, fridge))
		}},
	}
}

// idRows makes a table of IDs, each named from the sample, for a pattern
// that returns IDs.
func idRows(column string) func(ids []string, err error) ([]string, [][]string, error) {
	return func(ids []string, err error) ([]string, [][]string, error) {
		rows := make([][]string, len(ids))
		for i, id := range ids {
			rows[i] = []string{id, sampleNames[id]}
		}
		return []string{column, "(in the sample)"}, rows, err
	}
}

var foodHeader = []string{"FoodId", "Name", "Quantity", "Unit", "Category", "Expiry", "CreatedDatetime"}

func containerRows(c Container, err error) ([]string, [][]string, error) {
	rows := make([][]string, len(c.Foods))
	for i, f := range c.Foods {
		rows[i] = foodRow(f)
	}
	return append([]string{"ContainerName"}, foodHeader...), prefix(c.ContainerName, rows), err
}

func prefix(v string, rows [][]string) [][]string {
	for i, r := range rows {
		rows[i] = append([]string{v}, r...)
	}
	return rows
}

func foodRow(f Food) []string {
	q := "null"
	if f.Quantity != nil {
		q = strconv.FormatFloat(*f.Quantity, 'g', -1, 64)
	}
	return []string{f.FoodId, orNull(f.Name), q, orNull(f.Unit), orNull(f.Category), orNull(f.Expiry), f.CreatedDatetime}
}

func orNull(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

func linkRows(l InvitationLink, err error) ([]string, [][]string, error) {
	return []string{"GroupId", "InvitationLinkHash", "LinkExpiryDatetime"}, [][]string{{l.GroupId, l.InvitationLinkHash, l.LinkExpiryDatetime}}, err
}
