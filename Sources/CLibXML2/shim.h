#ifndef OUTLINE_CLIBXML2_SHIM_H
#define OUTLINE_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlversion.h>
#endif
