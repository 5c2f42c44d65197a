#ifndef OUTLINE_CLIBXML2_SHIM_H
#define OUTLINE_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so its headers pull in the system ICU
 * headers, whose UErrorCode differs from the one Foundation's _FoundationICU
 * module defines; a module that imports both then fails to build, depending on
 * build order. The toolchain uses no ICU-specific libxml2 API (only pointers to
 * encoding handlers cross into Swift), so the ICU parts are left out here. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
#endif
