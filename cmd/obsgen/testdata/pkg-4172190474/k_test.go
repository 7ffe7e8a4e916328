package p

var obsgenScale = 1
