package redis

// InfoObject exposes infoObject to the tests.
var InfoObject = infoObject
