package bus

import (
	"strconv"

	"github.com/redis/go-redis/v9"
)

// ChannelFor is the name of pub/sub channel on the Redis database rdb uses. Redis hands channel
// messages to subscribers of every database on the server, so installations sharing a server on
// different databases would hear each other's stop requests, notices and push messages; a
// database other than 0 is part of the channel's name. Publishers and subscribers of one
// installation use the same database, hence the same names.
func ChannelFor(rdb redis.UniversalClient, channel string) string {
	if c, ok := rdb.(*redis.Client); ok {
		if db := c.Options().DB; db != 0 {
			return channel + ":db" + strconv.Itoa(db)
		}
	}
	return channel
}
